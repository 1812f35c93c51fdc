import type { ReactNode } from 'react';

export type BadgeTone =
  | 'neutral'
  | 'primary'
  | 'secondary'
  | 'accent'
  | 'info'
  | 'success'
  | 'warning'
  | 'error'
  | 'ghost';

export interface BadgeProps {
  children: ReactNode;
  /** daisyUI colour. Default 'ghost'. */
  tone?: BadgeTone;
  /** Outlined rather than filled. */
  isOutline?: boolean;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  /** Extra classes (margins, alignment). */
  className?: string;
  /** A longer description for assistive technology and the tooltip. */
  title?: string;
}

// Written out in full so Tailwind's scanner sees every class name.
const TONES: Record<BadgeTone, string> = {
  neutral: 'badge-neutral',
  primary: 'badge-primary',
  secondary: 'badge-secondary',
  accent: 'badge-accent',
  info: 'badge-info',
  success: 'badge-success',
  warning: 'badge-warning',
  error: 'badge-error',
  ghost: 'badge-ghost',
};
const SIZES = { xs: 'badge-xs', sm: 'badge-sm', md: 'badge-md', lg: 'badge-lg' } as const;

/** A small coloured label: statuses, categories, counts. */
export function Badge({
  children,
  tone = 'ghost',
  isOutline = false,
  size = 'md',
  className,
  title,
}: BadgeProps) {
  const classes = [
    'badge',
    // An outlined neutral badge is drawn in the text colour: the neutral colour itself is near
    // black in both themes, so on the dark theme it would not be readable.
    isOutline && tone === 'neutral' ? '' : TONES[tone],
    SIZES[size],
    isOutline ? 'badge-outline' : '',
    'whitespace-nowrap',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <span className={classes} title={title}>
      {children}
    </span>
  );
}
