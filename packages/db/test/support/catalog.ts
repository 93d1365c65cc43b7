// Schema drift checker: compares the database model in schema.prisma (read through Prisma's
// own DMMF) with what the SQL migrations really built (read from the PostgreSQL catalog).
// Prisma's schema engine (`prisma migrate diff`) is not available offline, so this follows
// the rules Prisma Migrate itself uses when it renders SQL for PostgreSQL: column types,
// nullability, defaults, enums, primary keys, unique and plain indexes, foreign keys, and
// Prisma's default constraint names. CHECK constraints exist only in SQL and are ignored.
import internals from '@prisma/internals';
import pg from 'pg';

// @prisma/internals is CommonJS; Node's ESM loader only exposes it as a default export.
const { getDMMF } = internals;

type Dmmf = Awaited<ReturnType<typeof getDMMF>>;
type Datamodel = Dmmf['datamodel'];
type Model = Datamodel['models'][number];
type Field = Model['fields'][number];
type DatamodelEnum = Datamodel['enums'][number];

export interface IndexColumn {
  /** Column name, or the expression text of an expression index. */
  name: string;
  desc: boolean;
  nullsFirst: boolean;
}

export interface IndexShape {
  table: string;
  name: string;
  unique: boolean;
  method: string;
  columns: IndexColumn[];
  include: string[];
  predicate: string | null;
  nullsNotDistinct: boolean;
}

export interface ForeignKeyShape {
  table: string;
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string;
  onUpdate: string;
  deferrable: boolean;
}

export interface PrimaryKeyShape {
  name: string;
  columns: string[];
}

// ---------------------------------------------------------------------------------------------
// The database side
// ---------------------------------------------------------------------------------------------

export interface CatalogColumn {
  name: string;
  /** format_type() text, except enums: their bare type name (e.g. Plan, Plan[]). */
  type: string;
  notNull: boolean;
  /** pg_get_expr() text of the column default. */
  default: string | null;
  identity: boolean;
  generated: boolean;
}

export interface CatalogTable {
  name: string;
  columns: Map<string, CatalogColumn>;
  primaryKey: PrimaryKeyShape | null;
}

export interface Catalog {
  tables: Map<string, CatalogTable>;
  enums: Map<string, string[]>;
  indexes: IndexShape[];
  foreignKeys: ForeignKeyShape[];
}

export interface ReadCatalogOptions {
  schema?: string;
  /** Tables that belong to tooling, not to the model. */
  ignoreTables?: readonly string[];
}

const referentialActions: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** Reads tables, columns, enums, keys, indexes and foreign keys of one schema (public by default). */
export async function readCatalog(url: string, options: ReadCatalogOptions = {}): Promise<Catalog> {
  const schema = options.schema ?? 'public';
  const ignored = new Set(options.ignoreTables ?? ['_svc_migrations']);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = new Map<string, CatalogTable>();
    const tableRows = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
      [schema],
    );
    for (const row of tableRows.rows) {
      if (!ignored.has(row.table_name)) tables.set(row.table_name, { name: row.table_name, columns: new Map(), primaryKey: null });
    }

    const columnRows = await client.query<{
      table_name: string;
      column_name: string;
      formatted_type: string;
      enum_type: string | null;
      not_null: boolean;
      column_default: string | null;
      identity: string;
      generated: string;
    }>(
      `SELECT c.relname AS table_name, a.attname AS column_name, a.attnotnull AS not_null,
              format_type(a.atttypid, a.atttypmod) AS formatted_type,
              CASE WHEN t.typtype = 'e' THEN CASE WHEN tn.nspname = $1 THEN '' ELSE tn.nspname || '.' END || t.typname
                   WHEN et.typtype = 'e' THEN CASE WHEN etn.nspname = $1 THEN '' ELSE etn.nspname || '.' END || et.typname || '[]'
              END AS enum_type,
              pg_get_expr(d.adbin, d.adrelid) AS column_default,
              a.attidentity AS identity, a.attgenerated AS generated
         FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_type t ON t.oid = a.atttypid
         JOIN pg_namespace tn ON tn.oid = t.typnamespace
         LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
         LEFT JOIN pg_namespace etn ON etn.oid = et.typnamespace
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attnum`,
      [schema],
    );
    for (const row of columnRows.rows) {
      tables.get(row.table_name)?.columns.set(row.column_name, {
        name: row.column_name,
        type: row.enum_type ?? row.formatted_type,
        notNull: row.not_null,
        default: row.column_default,
        identity: row.identity !== '',
        generated: row.generated !== '',
      });
    }

    const enumRows = await client.query<{ name: string; labels: string[] }>(
      `SELECT t.typname AS name, json_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
         FROM pg_type t
         JOIN pg_namespace n ON n.oid = t.typnamespace
         JOIN pg_enum e ON e.enumtypid = t.oid
        WHERE n.nspname = $1
        GROUP BY t.typname`,
      [schema],
    );
    const enums = new Map(enumRows.rows.map((row) => [row.name, row.labels]));

    const keyRows = await client.query<{ table_name: string; name: string; columns: string[] }>(
      `SELECT rel.relname AS table_name, con.conname AS name,
              (SELECT json_agg(a.attname ORDER BY k.ord)
                 FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns
         FROM pg_constraint con
         JOIN pg_class rel ON rel.oid = con.conrelid
         JOIN pg_namespace n ON n.oid = rel.relnamespace
        WHERE n.nspname = $1 AND con.contype = 'p'`,
      [schema],
    );
    for (const row of keyRows.rows) {
      const table = tables.get(row.table_name);
      if (table) table.primaryKey = { name: row.name, columns: row.columns };
    }

    const indexRows = await client.query<{
      table_name: string;
      name: string;
      is_unique: boolean;
      method: string;
      predicate: string | null;
      key_count: number;
      nulls_not_distinct: boolean | null;
      columns: { name: string | null; expression: string; option: number }[];
    }>(
      `SELECT t.relname AS table_name, i.relname AS name, ix.indisunique AS is_unique, am.amname AS method,
              pg_get_expr(ix.indpred, ix.indrelid) AS predicate, ix.indnkeyatts AS key_count,
              (to_jsonb(ix) ->> 'indnullsnotdistinct')::boolean AS nulls_not_distinct,
              (SELECT json_agg(json_build_object(
                        'name', (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = ix.indrelid AND a.attnum = ix.indkey[k.n - 1] AND ix.indkey[k.n - 1] <> 0),
                        'expression', pg_get_indexdef(ix.indexrelid, k.n, true),
                        'option', coalesce(ix.indoption[k.n - 1], 0)) ORDER BY k.n)
                 FROM generate_series(1, ix.indnatts) AS k(n)) AS columns
         FROM pg_index ix
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN pg_am am ON am.oid = i.relam
        WHERE n.nspname = $1 AND t.relkind IN ('r', 'p') AND NOT ix.indisprimary`,
      [schema],
    );
    const indexes: IndexShape[] = indexRows.rows
      .filter((row) => tables.has(row.table_name))
      .map((row) => ({
        table: row.table_name,
        name: row.name,
        unique: row.is_unique,
        method: row.method,
        columns: row.columns.slice(0, row.key_count).map((column) => {
          const desc = (column.option & 1) !== 0;
          return { name: column.name ?? `(${column.expression})`, desc, nullsFirst: (column.option & 2) !== 0 };
        }),
        include: row.columns.slice(row.key_count).map((column) => column.name ?? column.expression),
        predicate: row.predicate,
        nullsNotDistinct: row.nulls_not_distinct ?? false,
      }));

    const foreignKeyRows = await client.query<{
      table_name: string;
      name: string;
      columns: string[];
      ref_schema: string;
      ref_table: string;
      ref_columns: string[];
      on_delete: string;
      on_update: string;
      deferrable: boolean;
    }>(
      `SELECT t.relname AS table_name, con.conname AS name, rn.nspname AS ref_schema, rt.relname AS ref_table,
              (SELECT json_agg(a.attname ORDER BY k.ord)
                 FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
              (SELECT json_agg(a.attname ORDER BY k.ord)
                 FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_columns,
              con.confdeltype AS on_delete, con.confupdtype AS on_update, con.condeferrable AS deferrable
         FROM pg_constraint con
         JOIN pg_class t ON t.oid = con.conrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN pg_class rt ON rt.oid = con.confrelid
         JOIN pg_namespace rn ON rn.oid = rt.relnamespace
        WHERE n.nspname = $1 AND con.contype = 'f'`,
      [schema],
    );
    const foreignKeys: ForeignKeyShape[] = foreignKeyRows.rows
      .filter((row) => tables.has(row.table_name))
      .map((row) => ({
        table: row.table_name,
        name: row.name,
        columns: row.columns,
        refTable: row.ref_schema === schema ? row.ref_table : `${row.ref_schema}.${row.ref_table}`,
        refColumns: row.ref_columns,
        onDelete: referentialActions[row.on_delete] ?? row.on_delete,
        onUpdate: referentialActions[row.on_update] ?? row.on_update,
        deferrable: row.deferrable,
      }));

    return { tables, enums, indexes, foreignKeys };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The schema side
// ---------------------------------------------------------------------------------------------

/** How a default is compared: both sides are reduced to the same canonical text. */
type ValueKind = 'text' | 'number' | 'boolean' | 'json' | 'datetime' | 'bytes' | 'other';

export interface ExpectedColumn {
  name: string;
  /** Where it comes from, for messages, e.g. Account.plan. */
  source: string;
  type: string;
  notNull: boolean;
  /** Canonical default, 'none', or null when any default is acceptable (dbgenerated()). */
  default: string | null;
  valueKind: ValueKind;
  isList: boolean;
}

export interface ExpectedTable {
  name: string;
  source: string;
  columns: Map<string, ExpectedColumn>;
  primaryKey: PrimaryKeyShape | null;
}

export interface ExpectedSchema {
  tables: Map<string, ExpectedTable>;
  enums: Map<string, { source: string; labels: string[] }>;
  indexes: IndexShape[];
  foreignKeys: ForeignKeyShape[];
  /** Things in schema.prisma this checker cannot express; reported as mismatches. */
  unsupported: string[];
}

// PostgreSQL's NAMEDATALEN - 1; Prisma trims generated names to fit it.
const maxIdentifierLength = 63;

function constraintName(base: string, suffix: string): string {
  const limit = maxIdentifierLength - suffix.length;
  return (base.length >= limit ? base.slice(0, limit) : base) + suffix;
}

/** Prisma's default names (psl ConstraintNames) for PostgreSQL. */
export const prismaNames = {
  primaryKey: (table: string) => constraintName(table, '_pkey'),
  unique: (table: string, columns: readonly string[]) => constraintName(`${table}_${columns.join('_')}`, '_key'),
  index: (table: string, columns: readonly string[]) => constraintName(`${table}_${columns.join('_')}`, '_idx'),
  foreignKey: (table: string, columns: readonly string[]) => constraintName(`${table}_${columns.join('_')}`, '_fkey'),
};

const prismaActions: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
};

/** Client-side generators: Prisma Client fills these in, the column has no database default. */
const clientSideDefaults = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

/** Parses schema.prisma with Prisma's own parser (the bundled wasm, no engine download). */
export async function loadDatamodel(schemaText: string): Promise<Datamodel> {
  const dmmf = await getDMMF({ datamodel: schemaText });
  if (!Array.isArray(dmmf.datamodel.indexes)) throw new Error('this Prisma version has no dmmf.datamodel.indexes');
  return dmmf.datamodel;
}

/**
 * The shape Prisma Migrate would give the database for this datamodel. `schemaText` is only
 * used for what the DMMF leaves out: `@relation(map: ...)` names and `relationMode = "prisma"`.
 */
export function expectedSchema(datamodel: Datamodel, schemaText: string): ExpectedSchema {
  const unsupported: string[] = [];
  const models = new Map(datamodel.models.map((model) => [model.name, model]));
  const enumsByName = new Map(datamodel.enums.map((item) => [item.name, item]));
  const tableOf = (model: Model) => model.dbName ?? model.name;
  const columnOf = (model: Model, fieldName: string) => {
    const field = model.fields.find((candidate) => candidate.name === fieldName);
    return field?.dbName ?? fieldName;
  };
  const enumDbName = (item: DatamodelEnum) => item.dbName ?? item.name;

  const enums = new Map<string, { source: string; labels: string[] }>();
  for (const item of datamodel.enums) {
    enums.set(enumDbName(item), { source: `enum ${item.name}`, labels: item.values.map((value) => value.dbName ?? value.name) });
  }

  const tables = new Map<string, ExpectedTable>();
  const indexes: IndexShape[] = [];
  const foreignKeys: ForeignKeyShape[] = [];

  for (const model of datamodel.models) {
    const table = tableOf(model);
    if (model.schema && model.schema !== 'public') unsupported.push(`model ${model.name}: schema "${model.schema}" is not checked (only public)`);
    const columns = new Map<string, ExpectedColumn>();
    for (const field of model.fields) {
      if (field.kind === 'object') continue;
      const column = field.dbName ?? field.name;
      const type = columnType(field, enumsByName, (problem) => unsupported.push(`field ${model.name}.${field.name}: ${problem}`));
      columns.set(column, {
        name: column,
        source: `${model.name}.${field.name}`,
        type,
        // Prisma renders scalar lists without NOT NULL
        notNull: field.isRequired && !field.isList,
        default: expectedDefault(field, enumsByName),
        valueKind: valueKind(field),
        isList: field.isList,
      });
    }
    tables.set(table, { name: table, source: `model ${model.name}`, columns, primaryKey: null });
  }

  for (const index of datamodel.indexes) {
    const model = models.get(index.model);
    if (!model) continue;
    const table = tableOf(model);
    const columns = index.fields.map((field) => columnOf(model, field.name));
    if (index.type === 'id') {
      const expected = tables.get(table);
      if (expected) expected.primaryKey = { name: index.dbName ?? prismaNames.primaryKey(table), columns };
      continue;
    }
    if (index.type !== 'unique' && index.type !== 'normal') {
      unsupported.push(`model ${model.name}: ${index.type} index is not supported on PostgreSQL`);
      continue;
    }
    const unique = index.type === 'unique';
    indexes.push({
      table,
      name: index.dbName ?? (unique ? prismaNames.unique(table, columns) : prismaNames.index(table, columns)),
      unique,
      method: (index.algorithm ?? 'BTree').toLowerCase(),
      columns: index.fields.map((field, position) => ({
        name: columns[position]!,
        desc: field.sortOrder === 'desc',
        // PostgreSQL's (and Prisma's) default: NULLS LAST ascending, NULLS FIRST descending
        nullsFirst: field.sortOrder === 'desc',
      })),
      include: [],
      predicate: null,
      nullsNotDistinct: false,
    });
  }

  const emulatedRelations = /^\s*relationMode\s*=\s*"prisma"/m.test(schemaText);
  const relationNames = relationMapNames(schemaText);
  const implicitManyToMany = new Map<string, [Model, Model]>();
  for (const model of datamodel.models) {
    for (const field of model.fields) {
      if (field.kind !== 'object') continue;
      const target = models.get(field.type);
      if (!target) continue;
      const from = field.relationFromFields ?? [];
      if (from.length > 0) {
        if (emulatedRelations) continue;
        const table = tableOf(model);
        const columns = from.map((name) => columnOf(model, name));
        const required = from.some((name) => model.fields.find((candidate) => candidate.name === name)?.isRequired);
        const onDelete = field.relationOnDelete ?? (required ? 'Restrict' : 'SetNull');
        const onUpdate = field.relationOnUpdate ?? 'Cascade';
        foreignKeys.push({
          table,
          name: relationNames.get(`${model.name}.${field.name}`) ?? prismaNames.foreignKey(table, columns),
          columns,
          refTable: tableOf(target),
          refColumns: (field.relationToFields ?? []).map((name) => columnOf(target, name)),
          onDelete: prismaActions[onDelete] ?? onDelete,
          onUpdate: prismaActions[onUpdate] ?? onUpdate,
          deferrable: false,
        });
      } else if (field.isList && field.relationName) {
        const back = target.fields.find((candidate) => candidate.relationName === field.relationName && candidate !== field);
        if (back?.isList && (back.relationFromFields ?? []).length === 0) {
          const pair = [model, target].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
          implicitManyToMany.set(field.relationName, pair as [Model, Model]);
        }
      }
    }
  }

  // Implicit many-to-many relations get a join table "_<RelationName>" (A, B), as Prisma 6+ renders it.
  for (const [relation, [modelA, modelB]] of implicitManyToMany) {
    const table = `_${relation}`;
    const columns = new Map<string, ExpectedColumn>();
    for (const [column, model] of [['A', modelA], ['B', modelB]] as const) {
      const idFields = model.fields.filter((field) => field.isId);
      const idField = idFields[0];
      if (idFields.length !== 1 || !idField) {
        unsupported.push(`relation ${relation}: implicit many-to-many needs a single @id on ${model.name}`);
        continue;
      }
      const type = columnType({ ...idField, isList: false }, enumsByName, () => {});
      columns.set(column, { name: column, source: `relation ${relation}`, type, notNull: true, default: 'none', valueKind: 'other', isList: false });
      if (!emulatedRelations) {
        foreignKeys.push({
          table,
          name: `${table}_${column}_fkey`,
          columns: [column],
          refTable: tableOf(model),
          refColumns: [idField.dbName ?? idField.name],
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
          deferrable: false,
        });
      }
    }
    tables.set(table, { name: table, source: `relation ${relation}`, columns, primaryKey: { name: `${table}_AB_pkey`, columns: ['A', 'B'] } });
    indexes.push({
      table,
      name: `${table}_B_index`,
      unique: false,
      method: 'btree',
      columns: [{ name: 'B', desc: false, nullsFirst: false }],
      include: [],
      predicate: null,
      nullsNotDistinct: false,
    });
  }

  return { tables, enums, indexes, foreignKeys, unsupported };
}

/** `@relation(..., map: "name")` per Model.field: the DMMF does not carry foreign key names. */
function relationMapNames(schemaText: string): Map<string, string> {
  const names = new Map<string, string>();
  let model: string | null = null;
  for (const line of schemaText.split('\n')) {
    const start = /^\s*model\s+(\w+)\s*\{/.exec(line);
    if (start) {
      model = start[1]!;
      continue;
    }
    if (/^\s*\}/.test(line)) {
      model = null;
      continue;
    }
    if (!model) continue;
    const relation = /^\s*(\w+)\s+\w+.*@relation\(([^)]*)\)/.exec(line.replace(/\/\/.*$/, ''));
    const map = relation && /\bmap\s*:\s*"([^"]+)"/.exec(relation[2]!);
    if (relation && map) names.set(`${model}.${relation[1]}`, map[1]!);
  }
  return names;
}

/** The column type as PostgreSQL's format_type() prints it (enums: bare type name). */
function columnType(field: Field, enums: Map<string, DatamodelEnum>, problem: (text: string) => void): string {
  const list = field.isList ? '[]' : '';
  if (field.kind === 'enum') {
    const item = enums.get(field.type);
    return (item?.dbName ?? field.type) + list;
  }
  if (field.kind === 'unsupported') return field.type.toLowerCase() + list;

  const [native, args = []] = field.nativeType ?? [null, []];
  const arg = (position: number) => args[position];
  const withArgs = (base: string) => (args.length > 0 ? `${base}(${args.join(',')})` : base);
  const time = (base: 'timestamp' | 'time', zone: boolean) =>
    `${base}${args.length > 0 ? `(${arg(0)})` : ''} ${zone ? 'with' : 'without'} time zone`;

  let type: string | undefined;
  switch (field.type) {
    case 'String':
      type = {
        Text: 'text',
        VarChar: withArgs('character varying'),
        Char: args.length > 0 ? withArgs('character') : 'character(1)',
        Uuid: 'uuid',
        Xml: 'xml',
        Inet: 'inet',
        Citext: 'citext',
        Bit: args.length > 0 ? withArgs('bit') : 'bit(1)',
        VarBit: withArgs('bit varying'),
      }[native ?? 'Text'];
      break;
    case 'Int':
      type = { Integer: 'integer', SmallInt: 'smallint', Oid: 'oid' }[native ?? 'Integer'];
      break;
    case 'BigInt':
      type = { BigInt: 'bigint' }[native ?? 'BigInt'];
      break;
    case 'Boolean':
      type = { Boolean: 'boolean' }[native ?? 'Boolean'];
      break;
    case 'Float':
      type = { DoublePrecision: 'double precision', Real: 'real' }[native ?? 'DoublePrecision'];
      break;
    case 'Decimal':
      // Prisma renders a Decimal without a native type as DECIMAL(65,30)
      type = native === null ? 'numeric(65,30)' : { Decimal: withArgs('numeric'), Money: 'money' }[native];
      break;
    case 'Json':
      type = { JsonB: 'jsonb', Json: 'json' }[native ?? 'JsonB'];
      break;
    case 'Bytes':
      type = { ByteA: 'bytea' }[native ?? 'ByteA'];
      break;
    case 'DateTime':
      if (native === null) type = 'timestamp(3) without time zone';
      else
        type = {
          Timestamp: time('timestamp', false),
          Timestamptz: time('timestamp', true),
          Date: 'date',
          Time: time('time', false),
          Timetz: time('time', true),
        }[native];
      break;
  }
  if (type === undefined) {
    problem(`type ${field.type}${native ? ` @db.${native}` : ''} is not known to the drift checker`);
    return `${field.type}${native ? ` @db.${withArgs(native)}` : ''}${list}`;
  }
  return type + list;
}

function valueKind(field: Field): ValueKind {
  if (field.kind === 'enum') return 'text';
  switch (field.type) {
    case 'String':
      return 'text';
    case 'Int':
    case 'BigInt':
    case 'Float':
    case 'Decimal':
      return 'number';
    case 'Boolean':
      return 'boolean';
    case 'Json':
      return 'json';
    case 'DateTime':
      return 'datetime';
    case 'Bytes':
      return 'bytes';
    default:
      return 'other';
  }
}

function expectedDefault(field: Field, enums: Map<string, DatamodelEnum>): string | null {
  if (!field.hasDefaultValue || field.default === undefined) return 'none';
  const value = field.default;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const generator = value as { name: string; args: readonly (string | number)[] };
    if (generator.name === 'autoincrement') return 'autoincrement()';
    if (generator.name === 'now') return 'CURRENT_TIMESTAMP';
    if (clientSideDefaults.has(generator.name)) return 'none';
    if (generator.name === 'dbgenerated') {
      const sql = generator.args[0];
      return typeof sql === 'string' && sql.trim() !== '' ? collapse(sql) : null;
    }
    return `${generator.name}(${generator.args.join(', ')})`;
  }
  const kind = valueKind(field);
  const item = field.kind === 'enum' ? enums.get(field.type) : undefined;
  const scalar = (entry: string | number | boolean) => {
    const mapped = item?.values.find((candidate) => candidate.name === entry)?.dbName;
    return canonicalValue(String(mapped ?? entry), kind);
  };
  if (Array.isArray(value)) return `[${(value as (string | number | boolean)[]).map(scalar).join(', ')}]`;
  return scalar(value as string | number | boolean);
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

function canonicalValue(raw: string, kind: ValueKind): string {
  switch (kind) {
    case 'number':
      return Number.isNaN(Number(raw)) ? raw : String(Number(raw));
    case 'boolean':
      return raw === 't' ? 'true' : raw === 'f' ? 'false' : raw;
    case 'json':
      try {
        return quoteLiteral(JSON.stringify(JSON.parse(raw)));
      } catch {
        return quoteLiteral(raw);
      }
    case 'datetime': {
      const time = Date.parse(raw);
      return Number.isNaN(time) ? quoteLiteral(raw) : quoteLiteral(new Date(time).toISOString());
    }
    default:
      return quoteLiteral(raw);
  }
}

/** A single constant as pg_get_expr() prints it: 'text'::type, (-1), 1.5, true, or null if it is no constant. */
function parseConstant(expression: string): string | null {
  let text = expression.trim();
  // ('x'::numeric)::double precision and similar nested casts
  for (let match = /^\((.*)\)::[\w ."[\]()]+$/s.exec(text); match; match = /^\((.*)\)::[\w ."[\]()]+$/s.exec(text)) text = match[1]!;
  const quoted = /^'((?:[^']|'')*)'(?:::[\w ."[\]()]+)?$/s.exec(text);
  if (quoted) return quoted[1]!.replace(/''/g, "'");
  const number = /^\(?(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\)?(?:::[\w ."[\]()]+)?$/i.exec(text);
  if (number) return number[1]!;
  if (text === 'true' || text === 'false') return text;
  return null;
}

/** The database default in the same canonical form as expectedDefault(). */
function canonicalDatabaseDefault(expression: string | null, kind: ValueKind, isList: boolean): string {
  if (expression === null) return 'none';
  if (/^nextval\('[^']+'::regclass\)$/.test(expression)) return 'autoincrement()';
  if (isList) {
    const array = /^ARRAY\[(.*)\](?:::[\w ."[\]]+)?$/s.exec(expression);
    if (array) {
      const elements = array[1]!.match(/'(?:[^']|'')*'(?:::[\w ."]+)?|[^,\s][^,]*/g) ?? [];
      const values = elements.map((element) => parseConstant(element));
      if (values.every((value) => value !== null)) return `[${values.map((value) => canonicalValue(value!, kind)).join(', ')}]`;
    }
    const literal = parseConstant(expression);
    if (literal !== null && literal.startsWith('{') && literal.endsWith('}')) {
      const inner = literal.slice(1, -1);
      const values = inner === '' ? [] : (inner.match(/"(?:[^"\\]|\\.)*"|[^,]+/g) ?? []);
      return `[${values.map((value) => canonicalValue(value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value, kind)).join(', ')}]`;
    }
    return collapse(expression);
  }
  const constant = parseConstant(expression);
  return constant === null ? collapse(expression) : canonicalValue(constant, kind);
}

// ---------------------------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------------------------

const list = (items: readonly string[]) => items.join(', ');

function describeIndex(index: IndexShape): string {
  const columns = index.columns.map(
    (column) =>
      column.name + (column.desc ? ' DESC' : '') + (column.nullsFirst !== column.desc ? (column.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : ''),
  );
  return [
    index.unique ? 'unique' : 'non-unique',
    index.method === 'btree' ? '' : `using ${index.method}`,
    `(${list(columns)})`,
    index.include.length > 0 ? `include (${list(index.include)})` : '',
    index.nullsNotDistinct ? 'nulls not distinct' : '',
    index.predicate ? `where ${index.predicate}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function describeForeignKey(key: ForeignKeyShape): string {
  return `(${list(key.columns)}) references ${key.refTable}(${list(key.refColumns)}) on delete ${key.onDelete} on update ${key.onUpdate}${key.deferrable ? ' deferrable' : ''}`;
}

/** Pairs items by name, then leftovers by identical definition (a renamed index or key). */
function pair<T extends { table: string; name: string }>(
  database: readonly T[],
  schema: readonly T[],
  definition: (item: T) => string,
  report: { both(inDatabase: T, inSchema: T): void; onlyDatabase(item: T): void; onlySchema(item: T): void },
) {
  const key = (item: T) => `${item.table}\u0000${item.name}`;
  const databaseByName = new Map(database.map((item) => [key(item), item]));
  const leftoverSchema: T[] = [];
  for (const item of schema) {
    const match = databaseByName.get(key(item));
    if (match) {
      databaseByName.delete(key(item));
      report.both(match, item);
    } else leftoverSchema.push(item);
  }
  const leftoverDatabase = [...databaseByName.values()];
  for (const item of leftoverSchema) {
    const position = leftoverDatabase.findIndex((candidate) => candidate.table === item.table && definition(candidate) === definition(item));
    if (position >= 0) {
      report.both(leftoverDatabase[position]!, item);
      leftoverDatabase.splice(position, 1);
    } else report.onlySchema(item);
  }
  for (const item of leftoverDatabase) report.onlyDatabase(item);
}

/** Every difference between the database and the schema, as readable lines (empty when they agree). */
export function compareSchema(catalog: Catalog, expected: ExpectedSchema): string[] {
  const problems: string[] = [...expected.unsupported];

  for (const [name, item] of expected.enums) {
    const labels = catalog.enums.get(name);
    if (!labels) problems.push(`enum ${name}: in schema (${item.source}), missing from database`);
    else if (list(labels) !== list(item.labels))
      problems.push(`enum ${name}: values (${list(labels)}) in database, (${list(item.labels)}) in schema`);
  }
  for (const [name, labels] of catalog.enums) {
    if (!expected.enums.has(name)) problems.push(`enum ${name}: in database (${list(labels)}), not in schema`);
  }

  for (const [name, table] of expected.tables) {
    const actual = catalog.tables.get(name);
    if (!actual) {
      problems.push(`table ${name}: in schema (${table.source}), missing from database`);
      continue;
    }
    for (const [columnName, column] of table.columns) {
      const where = `column ${name}.${columnName}`;
      const real = actual.columns.get(columnName);
      if (!real) {
        problems.push(`${where}: in schema (${column.source}), missing from database`);
        continue;
      }
      if (real.type !== column.type) problems.push(`${where}: type ${real.type} in database, ${column.type} in schema`);
      if (real.notNull !== column.notNull)
        problems.push(`${where}: ${real.notNull ? 'NOT NULL' : 'nullable'} in database, ${column.notNull ? 'NOT NULL' : 'nullable'} in schema`);
      if (real.identity) problems.push(`${where}: identity column in database, Prisma uses a sequence default (SERIAL)`);
      if (real.generated) problems.push(`${where}: generated column in database, not expressible in schema`);
      const actualDefault = canonicalDatabaseDefault(real.default, column.valueKind, column.isList);
      if (column.default === null) {
        if (actualDefault === 'none') problems.push(`${where}: no default in database, dbgenerated() default in schema`);
      } else if (actualDefault !== column.default) {
        problems.push(`${where}: default ${real.default === null ? 'none' : real.default} in database, ${column.default} in schema`);
      }
    }
    for (const [columnName, real] of actual.columns) {
      if (!table.columns.has(columnName)) problems.push(`column ${name}.${columnName}: in database (${real.type}), not in schema`);
    }
    const key = (shape: PrimaryKeyShape | null) => (shape ? `${shape.name} (${list(shape.columns)})` : 'none');
    if (key(actual.primaryKey) !== key(table.primaryKey))
      problems.push(`primary key of ${name}: ${key(actual.primaryKey)} in database, ${key(table.primaryKey)} in schema`);
  }
  for (const [name, table] of catalog.tables) {
    if (!expected.tables.has(name)) problems.push(`table ${name}: in database (${list([...table.columns.keys()])}), not in schema`);
  }

  const inExpectedTable = <T extends { table: string }>(item: T) => expected.tables.has(item.table) && catalog.tables.has(item.table);
  const indexKind = (index: IndexShape) => (index.unique ? 'unique index' : 'index');
  pair(catalog.indexes.filter(inExpectedTable), expected.indexes.filter(inExpectedTable), describeIndex, {
    both(real, wanted) {
      if (real.name !== wanted.name)
        problems.push(`${indexKind(wanted)} ${wanted.table} ${describeIndex(wanted)}: named ${real.name} in database, ${wanted.name} in schema`);
      else if (describeIndex(real) !== describeIndex(wanted))
        problems.push(`index ${real.table}.${real.name}: ${describeIndex(real)} in database, ${describeIndex(wanted)} in schema`);
    },
    onlyDatabase: (real) => problems.push(`${indexKind(real)} ${real.table}.${real.name}: in database ${describeIndex(real)}, not in schema`),
    onlySchema: (wanted) => problems.push(`${indexKind(wanted)} ${wanted.table}.${wanted.name}: in schema ${describeIndex(wanted)}, missing from database`),
  });

  pair(catalog.foreignKeys.filter(inExpectedTable), expected.foreignKeys.filter(inExpectedTable), describeForeignKey, {
    both(real, wanted) {
      if (real.name !== wanted.name)
        problems.push(`foreign key ${wanted.table} ${describeForeignKey(wanted)}: named ${real.name} in database, ${wanted.name} in schema`);
      else if (describeForeignKey(real) !== describeForeignKey(wanted))
        problems.push(`foreign key ${real.table}.${real.name}: ${describeForeignKey(real)} in database, ${describeForeignKey(wanted)} in schema`);
    },
    onlyDatabase: (real) => problems.push(`foreign key ${real.table}.${real.name}: in database ${describeForeignKey(real)}, not in schema`),
    onlySchema: (wanted) => problems.push(`foreign key ${wanted.table}.${wanted.name}: in schema ${describeForeignKey(wanted)}, missing from database`),
  });

  return problems;
}

/** Reads both sides and compares them. */
export async function schemaDrift(options: { url: string; schemaText: string; ignoreTables?: readonly string[] }): Promise<string[]> {
  const [datamodel, catalog] = await Promise.all([
    loadDatamodel(options.schemaText),
    readCatalog(options.url, { ignoreTables: options.ignoreTables ?? ['_svc_migrations'] }),
  ]);
  return compareSchema(catalog, expectedSchema(datamodel, options.schemaText));
}
