CREATE TABLE "parent_message_templates" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"templates" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "parent_message_templates" ADD CONSTRAINT "parent_message_templates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;