import { Field, Select } from '../../../src/dashboard/ui/field.tsx';

/** The brand kit a build or chat message is made with: one of the account's kits. */
export function BrandKitField({ id, kits, defaultValue }: { id: string; kits: { id: string; name: string }[]; defaultValue?: string }) {
  return (
    <Field id={id} label="Brand kit">
      <Select id={id} name="brand_kit_id" defaultValue={defaultValue} className="max-w-sm">
        {kits.map((kit) => (
          <option key={kit.id} value={kit.id}>
            {kit.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}
