import { idPattern, templateIdPrefix } from '@svc/contracts';
import { redirect } from 'next/navigation';

/** The template chooser on the AI page sends ?template_id=…; the chat lives at its own path. */
export default async function ChatChooser({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const id = (await searchParams).template_id;
  redirect(typeof id === 'string' && idPattern(templateIdPrefix).test(id) ? `/dashboard/ai/chat/${id}` : '/dashboard/ai');
}
