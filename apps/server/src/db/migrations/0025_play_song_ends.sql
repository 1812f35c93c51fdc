-- A library play's song's own end as heard, kept with the play so that a later chunk fills the
-- play no further than its song lasts (services/recognition/recognition-timeline.ts).
ALTER TABLE "plays" ADD COLUMN "song_ends_at" timestamp with time zone;