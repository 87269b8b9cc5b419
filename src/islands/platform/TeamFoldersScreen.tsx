import { Browser } from './Browser.tsx';

/** /platform/team-folders/:id?: the owner's team folders, and inside one the folder view with its team. */
export default function TeamFoldersScreen({ folderId }: { folderId: string | null }) {
  return <Browser source={{ kind: 'team', id: folderId }} />;
}
