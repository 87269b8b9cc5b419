import type { AdminScreenProps } from '../screens.ts';
import { LanguageList } from './LanguageList.tsx';
import { StringEditor } from './StringEditor.tsx';

/** /admin/language lists the languages; /admin/language/:code edits one language's strings. */
export default function LanguagesScreen({ params }: AdminScreenProps) {
  return params.code ? <StringEditor key={params.code} code={params.code} /> : <LanguageList />;
}
