import { Browser } from './Browser.tsx';

export default function RecentScreen() {
  return <Browser source={{ kind: 'latest' }} />;
}
