import { Browser } from './Browser.tsx';

export default function FilesScreen({ folderId }: { folderId: string | null }) {
  return <Browser source={{ kind: 'folder', id: folderId }} />;
}
