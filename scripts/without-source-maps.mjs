// Imported after tsx by the service's processes (service-process.ts says why).
process.setSourceMapsEnabled(false);
