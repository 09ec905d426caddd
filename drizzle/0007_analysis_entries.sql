CREATE TABLE "analysis_entries" (
	"analysis_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"position" integer NOT NULL,
	"name_key" text,
	"warning_level" integer,
	"data" jsonb NOT NULL,
	CONSTRAINT "analysis_entries_analysis_id_part_position_pk" PRIMARY KEY("analysis_id","part","position")
);
--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "complete" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "analysis_entries" ADD CONSTRAINT "analysis_entries_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_entries_name" ON "analysis_entries" USING btree ("analysis_id","part","name_key" text_pattern_ops);