import { useStore } from '@nanostores/react';
import { $config } from '../../stores/config.ts';
import { emojiChar } from '../../stores/files.ts';
import { $user } from '../../stores/user.ts';

export type EmojiSet = 'twemoji' | 'applemoji';

/** The user's emoji set (SPEC §2), else the instance default, else Twemoji. */
export function useEmojiSet(): EmojiSet {
  const user = useStore($user);
  const config = useStore($config);
  return user?.relationships.settings.data.attributes.emoji_type ?? config?.defaultEmoji ?? 'twemoji';
}

/**
 * An emoji value (a plain string or the picker's `{ char, name }`) drawn in the user's set:
 * Twemoji from the bundled COLR web font (fetched by the browser only once a glyph needs it), or
 * the system's colour emoji font for "applemoji". Decorative unless a `label` is given.
 */
export function Emoji({ value, className = '', label }: { value: unknown; className?: string; label?: string }) {
  const set = useEmojiSet();
  const char = emojiChar(value);
  if (!char) return null;
  return (
    <span className={`emoji-${set} inline-block leading-none ${className}`} {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}>
      {char}
    </span>
  );
}
