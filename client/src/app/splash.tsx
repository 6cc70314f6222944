import { Logo } from '../components/ui/logo';
import { Spinner } from '../components/ui/spinner';

export function Splash() {
  return (
    <div className="splash" role="status" aria-label="Loading Rinkside">
      <Logo />
      <Spinner size="lg" />
    </div>
  );
}
