import { Plus, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { PageHeader } from './PageHeader';
import { SearchField } from './SearchField';
import './ListPage.css';

/** A teacher's two actions on a list screen. */
export interface ListPageActions {
  /** The create button's label, e.g. "Create Course". */
  createLabel: string;
  onCreate: () => void;
  onGenerateSamples: () => void;
  generatingSamples: boolean;
  /** Hides Generate Samples on phones (the courses screen offers it on desktop only). */
  samplesDesktopOnly?: boolean;
}

export interface ListPageProps {
  title: string;
  subtitle: string;
  /** The search box's accessible name, e.g. "Search courses". */
  searchLabel: string;
  searchPlaceholder: string;
  query: string;
  onQueryChange: (query: string) => void;
  /**
   * How many items show out of how many, and their noun (singular, plural); shown beside the search
   * box once the list has loaded with anything in it.
   */
  count?: { shown: number; total: number; noun: readonly [string, string] };
  /** The teacher's actions; `false` or absent for students. */
  actions?: ListPageActions | false;
  /** Other buttons in the header, e.g. a student's "Join a class". */
  extraActions?: ReactNode;
  /** The list (or its loading and empty states) and the screen's dialogs. */
  children: ReactNode;
}

/**
 * A list screen: its title and subtitle, the teacher's Generate Samples and Create buttons, a
 * search box with the count of what it shows, then the list itself.
 */
export function ListPage({
  title,
  subtitle,
  searchLabel,
  searchPlaceholder,
  query,
  onQueryChange,
  count,
  actions,
  extraActions,
  children,
}: ListPageProps) {
  const searching = query.trim() !== '';
  return (
    <div className="list-page">
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          (actions || extraActions != null) && (
            <>
              {extraActions}
              {actions && (
                <>
                  <Button
                    variant="secondary"
                    icon={<Sparkles />}
                    className={actions.samplesDesktopOnly ? 'hide-on-phone' : undefined}
                    loading={actions.generatingSamples}
                    onClick={actions.onGenerateSamples}
                  >
                    Generate Samples
                  </Button>
                  <Button icon={<Plus />} onClick={actions.onCreate}>
                    {actions.createLabel}
                  </Button>
                </>
              )}
            </>
          )
        }
      />
      <div className="list-toolbar">
        <SearchField
          label={searchLabel}
          placeholder={searchPlaceholder}
          value={query}
          onChange={(event) => onQueryChange(event.target.value)}
        />
        {count && count.total > 0 && (
          <p className="list-toolbar__count" aria-live="polite">
            {searching ? `${count.shown} of ${count.total}` : count.total}{' '}
            {count.total === 1 ? count.noun[0] : count.noun[1]}
          </p>
        )}
      </div>
      {children}
    </div>
  );
}
