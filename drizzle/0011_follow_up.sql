CREATE TABLE "follow_up_ladders" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"steps" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up_register" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"school_year" integer NOT NULL,
	"student_key" text NOT NULL,
	"student_name" text NOT NULL,
	"student_id" text,
	"grade" text NOT NULL,
	"classroom" text NOT NULL,
	"step" integer NOT NULL,
	"step_days" integer NOT NULL,
	"step_name" text,
	"document" text NOT NULL,
	"unexcused" integer NOT NULL,
	"issued_on" date NOT NULL,
	"issued_by" text NOT NULL,
	"status" text DEFAULT 'awaiting' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follow_up_register_step_range" CHECK ("follow_up_register"."step" between 1 and 8),
	CONSTRAINT "follow_up_register_texts" CHECK (char_length("follow_up_register"."issued_by") between 1 and 120 and char_length("follow_up_register"."notes") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "follow_up_ladders" ADD CONSTRAINT "follow_up_ladders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_register" ADD CONSTRAINT "follow_up_register_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_register_step" ON "follow_up_register" USING btree ("user_id","school_year","student_key","step");