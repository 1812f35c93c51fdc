/** A labelled password input of the Settings forms, with an optional hint beneath. */
export function PasswordField({
  id,
  label,
  value,
  onChange,
  autoComplete,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  hint?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="label-text mb-1 block text-sm">
        {label}
      </label>
      <input
        id={id}
        type="password"
        className="input input-bordered w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-base-content/60 text-xs">
          {hint}
        </p>
      )}
    </div>
  );
}
