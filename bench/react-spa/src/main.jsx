// The donation site's routes as a React single-page app: React, React DOM, React Router and
// react-i18next, the way such an app is commonly put together. Only for measuring its JavaScript.
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useParams } from "react-router";
import { RouterProvider as DomRouterProvider } from "react-router/dom";
import "./i18n.js";
import { Layout } from "./Layout.jsx";
import { DonationPage } from "./DonationPage.jsx";
import { ResultPage } from "./ResultPage.jsx";
import { CancelPage } from "./CancelPage.jsx";
import { AccountForm } from "./AccountForm.jsx";
import { AdminPage } from "./AdminPage.jsx";
import { NotFound } from "./NotFound.jsx";

const LANGS = ["en", "he", "ru", "pt", "es"];

function LangGuard() {
  const { lang } = useParams();
  if (!LANGS.includes(lang)) return <Navigate to="/en/" replace />;
  return <Layout lang={lang}><Outlet /></Layout>;
}

const router = createBrowserRouter([
  { path: "/", element: <Navigate to="/en/" replace /> },
  {
    path: "/:lang",
    element: <LangGuard />,
    children: [
      { index: true, element: <DonationPage mode="online" /> },
      { path: "terminal-payment/:shopNumber?", element: <DonationPage mode="terminal" /> },
      { path: "terminal-success/:shopNumber?", element: <ResultPage kind="success" terminal /> },
      { path: "terminal-error/:shopNumber?", element: <ResultPage kind="error" terminal /> },
      { path: "success", element: <ResultPage kind="success" /> },
      { path: "error", element: <ResultPage kind="error" /> },
      { path: "cancel-subscription", element: <CancelPage /> },
      { path: "login", element: <AccountForm kind="login" /> },
      { path: "register", element: <AccountForm kind="register" /> },
      { path: "admin", element: <AdminPage /> },
      { path: "*", element: <NotFound /> },
    ],
  },
]);

// React Router 7+ ships RouterProvider twice; the DOM one wires flushSync.
const Provider = DomRouterProvider ?? RouterProvider;
createRoot(document.getElementById("root")).render(
  <StrictMode>
    <Suspense fallback={null}>
      <Provider router={router} />
    </Suspense>
  </StrictMode>,
);
