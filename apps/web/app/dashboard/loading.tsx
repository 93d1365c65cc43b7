import { LoadingPage } from '../../src/dashboard/ui/states.tsx';

export default function Loading() {
  return <LoadingPage />;
}
