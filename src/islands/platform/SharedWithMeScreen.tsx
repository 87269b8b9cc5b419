import { Browser } from './Browser.tsx';

/** /platform/shared-with-me/:id?: the team folders I am a member of, as far as my permission goes. */
export default function SharedWithMeScreen({ folderId }: { folderId: string | null }) {
  return <Browser source={{ kind: 'shared', id: folderId }} />;
}
