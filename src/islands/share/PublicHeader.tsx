import { Logo } from '../../components/Logo.tsx';

/** The brand bar over the public share and upload-request pages. */
export function PublicHeader() {
  return (
    <header className="mx-auto flex max-w-4xl items-center px-4 pt-6">
      <a href="/" rel="external">
        <Logo />
      </a>
    </header>
  );
}
