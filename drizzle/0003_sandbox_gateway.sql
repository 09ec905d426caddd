CREATE TABLE "sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"given_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"callback_url" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'initiated' NOT NULL,
	"card_last4" text,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payments_given_id_unique" UNIQUE("given_id")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "ending_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "ended_notified_at" timestamp with time zone;