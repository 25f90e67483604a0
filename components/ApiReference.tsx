/**
 * A readable rendering of an OpenAPI document: one section per operation with its parameters,
 * body schema and answers. Server-rendered, no JavaScript. The texts are the API's own (English),
 * for integrators, like the JSON document it renders.
 */
type Json = Record<string, unknown>;

function Schema({ schema }: { schema: unknown }) {
  // Focusable: a long schema scrolls sideways, and a keyboard must be able to scroll it.
  return <pre class="api-schema" tabIndex={0}>{JSON.stringify(schema, null, 2)}</pre>;
}

export function ApiReference({ doc }: { doc: Json }) {
  const info = doc.info as Json;
  const paths = doc.paths as Record<string, Record<string, Json>>;
  return (
    <article class="api-docs" lang="en" dir="ltr">
      <h1>{String(info.title)}</h1>
      <p>{String(info.description)}</p>
      <p>
        <a href="/api/openapi.json">openapi.json</a>
      </p>
      {Object.entries(paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => {
          const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-");
          const params = (op.parameters ?? []) as Json[];
          const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)
            ?.["application/json"] as
              | Json
              | undefined;
          return (
            <section id={id} class="api-op" key={id}>
              <h2>
                <code>{method.toUpperCase()} {path}</code>
              </h2>
              <p>{String(op.summary)}{op.security ? " (Bearer access token)" : ""}</p>
              {op.description ? <p>{String(op.description)}</p> : null}
              {params.length > 0 && (
                <table>
                  <caption>Parameters</caption>
                  <thead>
                    <tr>
                      <th scope="col">name</th>
                      <th scope="col">in</th>
                      <th scope="col">required</th>
                      <th scope="col">schema</th>
                    </tr>
                  </thead>
                  <tbody>
                    {params.map((p) => (
                      <tr key={`${p.in}-${p.name}`}>
                        <td>
                          <code>{String(p.name)}</code>
                        </td>
                        <td>{String(p.in)}</td>
                        <td>{p.required ? "yes" : "no"}</td>
                        <td>
                          <code>{JSON.stringify(p.schema)}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {body && (
                <>
                  <h3>Request body</h3>
                  <Schema schema={body.schema} />
                </>
              )}
              <h3>Answers</h3>
              <dl>
                {Object.entries(op.responses as Record<string, Json>).map(([status, r]) => (
                  <>
                    <dt>
                      <code>{status}</code> {String(r.description)}
                    </dt>
                    <dd>
                      {Object.entries((r.content ?? {}) as Record<string, Json>).slice(0, 1).map((
                        [mediaType, content],
                      ) => (
                        <>
                          {mediaType !== "application/json" && <code>{mediaType}</code>}
                          <Schema schema={content.schema} />
                        </>
                      ))}
                      {!r.content && "—"}
                    </dd>
                  </>
                ))}
              </dl>
            </section>
          );
        })
      )}
      <h2>Schemas</h2>
      <Schema schema={(doc.components as Json).schemas} />
    </article>
  );
}
