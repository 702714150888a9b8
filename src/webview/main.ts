// The run panel's browser app (placeholder until the run panel lands).
export {};
