CREATE TABLE "absence_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"tier_at_risk" integer NOT NULL,
	"tier_chronic" integer NOT NULL,
	"tier_severe" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "absence_settings_tiers_ascending" CHECK (0 < "absence_settings"."tier_at_risk" and "absence_settings"."tier_at_risk" < "absence_settings"."tier_chronic" and "absence_settings"."tier_chronic" < "absence_settings"."tier_severe" and "absence_settings"."tier_severe" <= 10000)
);
--> statement-breakpoint
ALTER TABLE "absence_settings" ADD CONSTRAINT "absence_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;