ALTER TABLE "invoices" ADD COLUMN "customer_name_ar" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "customer_name_en" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "full_name_ar" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "full_name_en" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "full_name_asked_at" timestamp with time zone;