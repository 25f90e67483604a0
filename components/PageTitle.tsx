import { Head } from "@/lib/framework/mod.ts";

/** A page's `<title>` (with the site name) and its `<h1>`. */
export function PageTitle(props: { title: string; siteName: string }) {
  return (
    <>
      <Head title={`${props.title} · ${props.siteName}`} />
      <h1>{props.title}</h1>
    </>
  );
}
