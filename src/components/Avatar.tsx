/**
 * A user's avatar (SPEC §3, §9): the image at the size that fits (>= 52 md, > 32 sm, else xs),
 * else the first letter of the name, falling back to the email, on the user's colour.
 */
export interface AvatarProps {
  size: number;
  name: string;
  email?: string;
  color?: string | null;
  avatar?: { xs: string; sm: string; md: string } | null;
  className?: string;
}

export function avatarSource(avatar: NonNullable<AvatarProps['avatar']>, size: number): string {
  if (size >= 52) return avatar.md;
  if (size > 32) return avatar.sm;
  return avatar.xs;
}

export function Avatar({ size, name, email, color, avatar, className = '' }: AvatarProps) {
  const radius = size > 32 ? 'rounded-xl' : 'rounded-lg';
  const style = { width: size, height: size };
  if (avatar) {
    return <img src={avatarSource(avatar, size)} alt="" width={size} height={size} style={style} className={`${radius} shrink-0 object-cover ${className}`} />;
  }
  const letter = (name.trim() || email?.trim() || '?').charAt(0).toUpperCase();
  return (
    <span
      aria-hidden="true"
      style={{ ...style, backgroundColor: color ?? 'var(--brand)' }}
      className={`${radius} ${size > 42 ? 'text-2xl' : 'text-sm'} inline-flex shrink-0 items-center justify-center font-bold text-white ${className}`}
    >
      {letter}
    </span>
  );
}
