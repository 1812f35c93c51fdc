import { expect, test } from './fixtures.js';
import { EventsPage, germanDate, listEvents, listSocials } from './pages/events-page.js';

/** Runs against the demo-seeded server (project 'demo'), whose events have nights with plays. */
test('the socials of an event lead to their analytics', async ({ page, request }) => {
  // Socials come from recognised plays; the demo data has them: take the first event that has some.
  let found: { eventId: number; eventName: string; socials: Awaited<ReturnType<typeof listSocials>> } | null =
    null;
  for (const event of await listEvents(request)) {
    const socials = await listSocials(request, event.event_id);
    if (socials.length > 0) {
      found = { eventId: event.event_id, eventName: event.event_name, socials };
      break;
    }
  }
  expect(found, 'the demo data has events with socials').not.toBeNull();
  if (!found) return;

  const events = new EventsPage(page);
  await events.goto();
  await events.eventButton(found.eventName).click();
  const dialog = events.eventDialog(found.eventName);
  const socialList = dialog.getByRole('list', { name: 'Socials' });
  await expect(socialList.getByRole('listitem')).toHaveCount(found.socials.length);
  const social = found.socials[0]!;
  const row = socialList.getByRole('button').first();
  await expect(row).toContainText(social.social_name);
  await expect(row).toContainText(germanDate(social.social_date));
  await expect(row).toContainText(social.day_of_week);
  if (social.start_time && social.end_time) {
    await expect(row).toContainText(`${social.start_time} – ${social.end_time}`);
    expect(social.start_time).toMatch(/^\d\d:\d\d$/);
  }
  await row.click();
  await expect(page).toHaveURL(`/analytics?eventId=${found.eventId}&socialId=${social.social_id}`);
});
