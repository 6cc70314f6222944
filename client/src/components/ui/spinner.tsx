export function Spinner({ size = 'md', label }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  return (
    <span className={`spinner spinner--${size}`} role={label ? 'status' : undefined} aria-label={label}>
      <span className="spinner__puck" />
    </span>
  );
}

/** Centered spinner for a whole page or panel while its data loads. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner size="lg" label={label} />
    </div>
  );
}
