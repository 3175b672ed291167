import { addMonths, format, startOfMonth } from 'date-fns';
import { CalendarDays, ChevronLeft, ChevronRight, List } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { IconButton } from '../../components/IconButton';
import { PageHeader } from '../../components/PageHeader';
import { useErrorToast } from '../../components/useErrorToast';
import { PHONE_MEDIA_QUERY, useMediaQuery } from '../layout/useMediaQuery';
import { useGetCalendarQuery } from './calendarApi';
import { agendaEnd, dayKey, itemsByDay, monthRange } from './calendarDates';
import { CalendarFeedBox } from './CalendarFeedBox';
import { DayItems } from './DayItems';
import { MonthGrid } from './MonthGrid';
import './CalendarPage.css';

type View = 'month' | 'agenda';

/**
 * /calendar (DESIGN §14): due dates by month, as a grid or an agenda (the default on a phone),
 * refetched live when assignments or submissions change, and the personal ICS feed.
 */
export function CalendarPage() {
  const phone = useMediaQuery(PHONE_MEDIA_QUERY);
  const [chosenView, setChosenView] = useState<View | null>(null);
  const view: View = chosenView ?? (phone ? 'agenda' : 'month');
  const [focusedDay, setFocusedDay] = useState(() => new Date());
  const month = useMemo(() => startOfMonth(focusedDay), [focusedDay]);
  const range = useMemo(() => monthRange(month), [month]);
  const { data, isFetching, error } = useGetCalendarQuery(range, { refetchOnMountOrArgChange: true });
  useErrorToast(error, 'The calendar could not be loaded.');
  const byDay = useMemo(() => itemsByDay(data?.items ?? []), [data]);
  const titleId = useId();
  const dayHeadingRef = useRef<HTMLHeadingElement>(null);
  const [openedDay, setOpenedDay] = useState<Date | null>(null);

  useEffect(() => {
    if (openedDay) dayHeadingRef.current?.focus();
  }, [openedDay]);

  const goToMonth = (delta: number) => setFocusedDay((day) => startOfMonth(addMonths(day, delta)));
  const focusedItems = byDay.get(dayKey(focusedDay)) ?? [];
  // The month, then two weeks of the next: on the 27th, what is due next week is listed too.
  const agendaDays = [...byDay.entries()].filter(([key]) => {
    const day = new Date(`${key}T12:00`);
    return day >= month && day <= agendaEnd(month);
  });

  return (
    <div className="calendar">
      <PageHeader title="Calendar" subtitle="Due dates from your classes, by month." />
      <Card className="calendar__main">
        <div className="calendar__toolbar">
          <div className="calendar__nav">
            <IconButton label="Previous month" icon={<ChevronLeft />} onClick={() => goToMonth(-1)} />
            <h2 id={titleId} className="calendar__month" aria-live="polite">
              {format(month, 'MMMM yyyy')}
            </h2>
            <IconButton label="Next month" icon={<ChevronRight />} onClick={() => goToMonth(1)} />
            <Button variant="secondary" size="sm" onClick={() => setFocusedDay(new Date())}>
              Today
            </Button>
          </div>
          <div className="calendar__views" role="group" aria-label="View">
            <button
              type="button"
              className="calendar__view"
              aria-pressed={view === 'month'}
              onClick={() => setChosenView('month')}
            >
              <CalendarDays aria-hidden="true" size={16} /> Month
            </button>
            <button
              type="button"
              className="calendar__view"
              aria-pressed={view === 'agenda'}
              onClick={() => setChosenView('agenda')}
            >
              <List aria-hidden="true" size={16} /> Agenda
            </button>
          </div>
        </div>

        <div aria-busy={isFetching}>
          {view === 'month' ? (
            <>
              <MonthGrid
                month={month}
                focusedDay={focusedDay}
                byDay={byDay}
                labelledBy={titleId}
                onFocusDay={setFocusedDay}
                onOpenDay={(day) => {
                  setFocusedDay(day);
                  setOpenedDay(day);
                }}
              />
              <section className="calendar__day" aria-labelledby={`${titleId}-day`}>
                <h3 id={`${titleId}-day`} ref={dayHeadingRef} tabIndex={-1} className="calendar__day-title">
                  {format(focusedDay, 'EEEE, MMMM d')}
                </h3>
                {focusedItems.length > 0 ? (
                  <DayItems items={focusedItems} />
                ) : (
                  <p className="calendar__empty">Nothing due this day.</p>
                )}
              </section>
            </>
          ) : agendaDays.length > 0 ? (
            <ol className="agenda" aria-labelledby={titleId}>
              {agendaDays.map(([key, items]) => (
                <li key={key} className="agenda__day">
                  <h3 className="agenda__date">{format(new Date(`${key}T12:00`), 'EEEE, MMMM d')}</h3>
                  <DayItems items={items} />
                </li>
              ))}
            </ol>
          ) : (
            <p className="calendar__empty">
              {data ? `Nothing due in ${format(month, 'MMMM')} or the first two weeks after.` : ''}
            </p>
          )}
        </div>
      </Card>
      <CalendarFeedBox />
    </div>
  );
}
