import { SearchIcon } from './icons';
import { Spinner } from './spinner';

export function SearchBox({
  value,
  onChange,
  placeholder,
  label,
  busy,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
  busy?: boolean;
  testId?: string;
}) {
  return (
    <div className="search-box" role="search">
      <SearchIcon className="search-box__icon" size={20} />
      <input
        type="search"
        className="search-box__input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-label={label}
        data-testid={testId}
        autoComplete="off"
        spellCheck={false}
      />
      {busy && <Spinner size="sm" />}
    </div>
  );
}
