import { zoneAbbreviation } from '@classwave/shared';
import { formatListDate } from '../../components/dates';
import { localTimeZone } from './ReleaseFields';

/**
 * "Was …, now … (Europe/Paris)", in the viewer's zone, which is named. Across a clock change the
 * two dates also carry their zone's summer or winter name, so "11:59 PM" twice is not misread.
 */
export function DueMoved({ from, to }: { from: string; to: string }) {
  const zone = localTimeZone();
  const [before, after] = [zoneAbbreviation(from, zone), zoneAbbreviation(to, zone)];
  const named = (iso: string, abbreviation: string) =>
    before === after ? formatListDate(iso) : `${formatListDate(iso)} ${abbreviation}`;
  // One paragraph: loose text and <strong> in a Notice (a flex column) became one line each.
  return (
    <p>
      Was {named(from, before)}, now <strong>{named(to, after)}</strong> ({zone}).
    </p>
  );
}
