CREATE TABLE "credit_note_counters" (
	"seller" text PRIMARY KEY NOT NULL,
	"last_serial" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"seller" text NOT NULL,
	"invoice_id" uuid NOT NULL,
	"invoice_serial" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"user_id" uuid,
	"issued_at" timestamp with time zone NOT NULL,
	"seller_name_ar" text NOT NULL,
	"seller_name_en" text NOT NULL,
	"seller_address_ar" text NOT NULL,
	"seller_address_en" text NOT NULL,
	"seller_vat_number" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_name_ar" text,
	"customer_name_en" text,
	"package_name_ar" text NOT NULL,
	"package_name_en" text NOT NULL,
	"months" integer NOT NULL,
	"price" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"vat" integer NOT NULL,
	"total" integer NOT NULL,
	"payment_method" text NOT NULL,
	"gateway_refund_id" text,
	"qr" text NOT NULL,
	CONSTRAINT "credit_notes_serial_unique" UNIQUE("serial"),
	CONSTRAINT "credit_notes_invoice_id_unique" UNIQUE("invoice_id"),
	CONSTRAINT "credit_notes_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "credit_notes_negative" CHECK ("credit_notes"."price" <= 0 AND "credit_notes"."vat" <= 0 AND "credit_notes"."total" = "credit_notes"."price" + "credit_notes"."vat")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_user" ON "credit_notes" USING btree ("user_id","issued_at");--> statement-breakpoint
-- Credit notes are append-only like invoices: only clearing user_id (the account deleted) passes.
CREATE FUNCTION credit_notes_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.user_id IS NULL AND (to_jsonb(NEW) - 'user_id') = (to_jsonb(OLD) - 'user_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'credit notes are append-only';
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER credit_notes_append_only BEFORE UPDATE OR DELETE ON credit_notes FOR EACH ROW EXECUTE FUNCTION credit_notes_append_only();
