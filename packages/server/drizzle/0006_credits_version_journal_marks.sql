CREATE TABLE "credit_journal_marks" (
	"shard" smallint PRIMARY KEY NOT NULL,
	"applied_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_credits" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;