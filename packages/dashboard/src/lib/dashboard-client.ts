import { createDashboardClient } from "@keyport/client";

/** The proxy's market and chat routes, on the page's own origin. */
export const dashboardClient = createDashboardClient({ baseUrl: "" });
