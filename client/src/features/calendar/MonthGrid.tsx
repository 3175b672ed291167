import type { CalendarItem } from '@classwave/shared';
import clsx from 'clsx';
import { format, isSameDay, isSameMonth, isToday } from 'date-fns';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { itemLook } from './calendarItemLook';
import { dayKey, monthGridDays, moveFocus } from './calendarDates';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Chips a day shows before "+N more". */
const CHIPS = 3;

export interface MonthGridProps {
  month: Date;
  /** The day that takes focus (one tab stop for the whole grid). */
  focusedDay: Date;
  byDay: Map<string, CalendarItem[]>;
  labelledBy: string;
  /** Arrow keys, Home/End and PageUp/PageDown moved the focus (the page follows into another month). */
  onFocusDay: (day: Date) => void;
  /** Enter or a click: show the day. */
  onOpenDay: (day: Date) => void;
}

function dayLabel(day: Date, items: CalendarItem[]): string {
  const due = items.length === 0 ? 'nothing due' : `${items.length} due`;
  return `${format(day, 'EEEE, MMMM d')}${isToday(day) ? ' (today)' : ''}, ${due}`;
}

/** The month view (DESIGN §14): a grid of days, one tab stop, moved with the keys of the ARIA grid pattern. */
export function MonthGrid({ month, focusedDay, byDay, labelledBy, onFocusDay, onOpenDay }: MonthGridProps) {
  const days = monthGridDays(month);
  const gridRef = useRef<HTMLDivElement>(null);
  const movedByKey = useRef(false);

  // After a key moved the focus (maybe into another month), the new day's button takes it.
  useEffect(() => {
    if (!movedByKey.current) return;
    movedByKey.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-day="${dayKey(focusedDay)}"]`)?.focus();
  }, [focusedDay, month]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next = moveFocus(focusedDay, event.key);
    if (!next) return;
    event.preventDefault();
    movedByKey.current = true;
    onFocusDay(next);
  }

  const weeks: Date[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));

  return (
    <div ref={gridRef} role="grid" aria-labelledby={labelledBy} className="month-grid" onKeyDown={onKeyDown}>
      <div role="row" className="month-grid__row month-grid__head">
        {WEEKDAYS.map((name) => (
          <div key={name} role="columnheader" className="month-grid__weekday">
            <abbr title={name}>{name.slice(0, 3)}</abbr>
          </div>
        ))}
      </div>
      {weeks.map((week) => (
        <div key={dayKey(week[0]!)} role="row" className="month-grid__row">
          {week.map((day) => {
            const items = byDay.get(dayKey(day)) ?? [];
            const selected = isSameDay(day, focusedDay);
            return (
              <div key={dayKey(day)} role="gridcell" aria-selected={selected} className="month-grid__cell">
                <button
                  type="button"
                  data-day={dayKey(day)}
                  tabIndex={selected ? 0 : -1}
                  aria-label={dayLabel(day, items)}
                  className={clsx(
                    'month-grid__day',
                    !isSameMonth(day, month) && 'month-grid__day--outside',
                    isToday(day) && 'month-grid__day--today',
                    selected && 'month-grid__day--selected',
                  )}
                  onClick={() => onOpenDay(day)}
                >
                  <span className="month-grid__number" aria-hidden="true">
                    {format(day, 'd')}
                  </span>
                  <span className="month-grid__chips" aria-hidden="true">
                    {items.slice(0, CHIPS).map((item) => {
                      const look = itemLook(item);
                      return (
                        <span key={item.assignmentId} className={`cal-chip cal-chip--${look.tone}`}>
                          <span className="cal-chip__title" title={item.title}>
                            {item.title}
                          </span>
                          {item.needsGrading !== null && item.needsGrading > 0 && (
                            <span className="cal-chip__count">{item.needsGrading}</span>
                          )}
                        </span>
                      );
                    })}
                    {items.length > CHIPS && (
                      <span className="cal-chip__more">+{items.length - CHIPS} more</span>
                    )}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
