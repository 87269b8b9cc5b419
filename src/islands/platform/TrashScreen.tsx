import { Browser } from './Browser.tsx';

export default function TrashScreen({ folderId }: { folderId: string | null }) {
  return <Browser source={{ kind: 'trash', id: folderId }} />;
}
