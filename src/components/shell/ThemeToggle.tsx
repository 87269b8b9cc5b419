import { useStore } from '@nanostores/react';
import { Moon, Sun } from 'lucide-react';
import { $dark, toggleTheme } from '../../stores/theme.ts';
import { useT } from '../../stores/i18n.ts';

export function ThemeToggle() {
  const dark = useStore($dark);
  const t = useT();
  return (
    <button
      type="button"
      onClick={() => void toggleTheme()}
      className="rounded-control p-2 text-muted hover:bg-surface-2 hover:text-text"
      aria-label={t('app.toggle_theme')}
      aria-pressed={dark}
    >
      {dark ? <Sun className="size-5" aria-hidden /> : <Moon className="size-5" aria-hidden />}
    </button>
  );
}
