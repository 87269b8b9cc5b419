/**
 * How the person at the terminal runs one of the product's commands, for the hints the CLI scripts
 * print: `npm start` / `npm run setup --` from a checkout, `./cloud-drive-linux-x64 setup` from the
 * one-file build (packaging/launcher.cjs names itself in CLOUD_DRIVE_EXECUTABLE).
 */
export function commandLine(command: string): string {
  const executable = process.env.CLOUD_DRIVE_EXECUTABLE;
  if (executable) return command === 'start' ? executable : `${executable} ${command}`;
  return command === 'start' ? 'npm start' : `npm run ${command} --`;
}
