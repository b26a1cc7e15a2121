import { useState } from "react";
import { RouterProvider } from "react-router";
import { AppProvider } from "@/app/provider";
import { createAppRouter } from "@/app/router";

/** App is the whole application: providers around the router. */
export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
