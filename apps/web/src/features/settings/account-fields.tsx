import type { Role } from '@wcs/contract';
import { PASSWORD_LIMITS, ROLES } from '../../lib/roles';
import { PasswordField } from './password-field';

/** The Name and Role fields of the forms that make an account or a device token. */
export function NameAndRoleFields({
  id,
  name,
  role,
  onName,
  onRole,
  placeholder,
}: {
  id: string;
  name: string;
  role: Role;
  onName: (value: string) => void;
  onRole: (value: Role) => void;
  placeholder?: string;
}) {
  return (
    <>
      <div>
        <label htmlFor={`${id}-name`} className="label-text mb-1 block text-sm">
          Name
        </label>
        <input
          id={`${id}-name`}
          type="text"
          className="input input-bordered w-full"
          placeholder={placeholder}
          value={name}
          onChange={(event) => onName(event.target.value)}
          autoComplete="off"
          maxLength={64}
        />
      </div>
      <div>
        <label htmlFor={`${id}-role`} className="label-text mb-1 block text-sm">
          Role
        </label>
        <select
          id={`${id}-role`}
          className="select select-bordered w-full"
          value={role}
          onChange={(event) => onRole(event.target.value as Role)}
        >
          {ROLES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** A new password typed twice ("Password" and "Repeat password", or with "New"), with its rule. */
export function NewPasswordFields({
  id,
  label,
  password,
  repeat,
  onPassword,
  onRepeat,
}: {
  id: string;
  label: 'Password' | 'New password';
  password: string;
  repeat: string;
  onPassword: (value: string) => void;
  onRepeat: (value: string) => void;
}) {
  return (
    <>
      <PasswordField
        id={`${id}-password`}
        label={label}
        value={password}
        onChange={onPassword}
        autoComplete="new-password"
        hint={`At least ${PASSWORD_LIMITS.min} characters`}
      />
      <PasswordField
        id={`${id}-repeat`}
        label={`Repeat ${label.toLowerCase()}`}
        value={repeat}
        onChange={onRepeat}
        autoComplete="new-password"
      />
    </>
  );
}
