CREATE TABLE "school_details" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"school_name" text NOT NULL,
	"education_office" text,
	"principal_name" text,
	"counsellor_name" text,
	"logo_file" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "school_details" ADD CONSTRAINT "school_details_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;