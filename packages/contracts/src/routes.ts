import type { HttpMethod, Operation } from './operation.ts';

export interface RouteMatch {
  /** The operation for this method, or null when the path exists but not with this method. */
  operation: Operation | null;
  allowed: HttpMethod[];
  params: Record<string, string>;
}

interface CompiledRoute {
  pattern: RegExp;
  names: string[];
  operations: Map<HttpMethod, Operation>;
}

/** Matches request paths against the catalog; used for 404 and 405 answers before any handler runs. */
export class RouteTable {
  private readonly routes: CompiledRoute[] = [];

  constructor(operations: readonly Operation[]) {
    const byPath = new Map<string, CompiledRoute>();
    for (const operation of operations) {
      let route = byPath.get(operation.path);
      if (!route) {
        const names: string[] = [];
        const source = operation.path
          .split('/')
          .map((segment) => {
            const name = /^\{(\w+)\}$/.exec(segment)?.[1];
            if (!name) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(name);
            return '([^/]+)';
          })
          .join('/');
        route = { pattern: new RegExp(`^${source}/?$`), names, operations: new Map() };
        byPath.set(operation.path, route);
        this.routes.push(route);
      }
      route.operations.set(operation.method, operation);
    }
    // literal segments win over parameters: /v1/templates/preview before /v1/templates/{id}
    this.routes.sort((a, b) => a.names.length - b.names.length);
  }

  match(method: string, path: string): RouteMatch | null {
    for (const route of this.routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => {
        params[name] = safeDecode(found[index + 1] ?? '');
      });
      const allowed = [...route.operations.keys()];
      const lower = method.toLowerCase() as HttpMethod;
      const operation = route.operations.get(lower) ?? (lower === ('head' as HttpMethod) ? route.operations.get('get') : undefined);
      return { operation: operation ?? null, allowed, params };
    }
    return null;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
