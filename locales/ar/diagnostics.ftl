diagnostics-title = التشخيص
diagnostics-loading = جارٍ التحميل…

## الإطارات المعزولة

diagnostics-quarantine-title = الإطارات المعزولة
diagnostics-quarantine-empty = لا توجد إطارات معزولة: التزم كل حدث حتى الآن بالعقد.
diagnostics-by-rule = المرفوضة، حسب القاعدة
diagnostics-rule-count = { $rule }: { $count }
diagnostics-recent = الأحدث
diagnostics-col-seq = التسلسل
diagnostics-col-rule = القاعدة
diagnostics-col-why = السبب
diagnostics-col-frame = الإطار (كما وصل)
diagnostics-raw-cut = { $bytes ->
    [zero] (مقتطع، { $bytes } بايت)
    [one] (مقتطع، بايت واحد)
    [two] (مقتطع، بايتان)
    [few] (مقتطع، { $bytes } بايتات)
    [many] (مقتطع، { $bytes } بايتًا)
   *[other] (مقتطع، { $bytes } بايت)
}

## الخادم

diagnostics-host-title = الخادم
diagnostics-host-check = فحص الخادم
diagnostics-host-checking = جارٍ فحص كل قواعد واجهة الخادم (نحو 20 ثانية)…
diagnostics-host-works = هذا الخادم يعمل مع a2learn Teacher.
diagnostics-host-breaks = هذا الخادم يخالف قاعدة تحتاجها لوحة المتابعة: { $what } ({ $section }).
diagnostics-host-breaks-detail = هذا الخادم يخالف قاعدة تحتاجها لوحة المتابعة: { $what } ({ $section }). { $detail }
diagnostics-check-col-result = النتيجة
diagnostics-check-col-rule = القاعدة
diagnostics-check-col-where = المصدر
diagnostics-check-col-seen = ما لوحظ
diagnostics-check-passed = ناجح
diagnostics-check-failed = فاشل
diagnostics-check-advice = نصيحة
diagnostics-check-skipped = متخطّى

## كل قاعدة من قواعد فحص الخادم، بمعرّفها.

diagnostics-check-auth-refused = بلا رمز أو برمز خاطئ يكون الرد 401 ولا شيء غيره
diagnostics-check-auth-accepted = الرمز يفتح جلسة MCP على /mcp
diagnostics-check-tools-required = تضم tools/list كل الأدوات المطلوبة، ولكل منها مخطط إدخال يسمّي وسائطها
diagnostics-check-tools-optional = الأدوات الاختيارية (pause_class، resume_class، set_pacing، list_classes) موصوفة
diagnostics-check-catalog-valid = مدخلات list_pathways مدخلات سجل صالحة: خطوات غير مكررة وقيم requires معروفة
diagnostics-check-feed-unknown-class = تدفق الأحداث لصف غير موجود يرد بالرمز 404
diagnostics-check-writes-room = يسري مفعول pause_class و resume_class ويظهران في تدفق الأحداث
diagnostics-check-feed-content-type = يرد تدفق الأحداث بالنوع text/event-stream
diagnostics-check-feed-opening = يبدأ الاتصال بـ RUN_STARTED ثم STATE_SNAPSHOT {"{"}class_id, learners, assignments{"}"}
diagnostics-check-feed-ids = لكل إطار بيانات بعد الافتتاح سطر id: <seq>
diagnostics-check-feed-seq-order = قيم seq تتزايد تزايدًا صارمًا
diagnostics-check-feed-agui = كل إطار يستوفي قواعد EventSchema في AG-UI
diagnostics-check-feed-contract = كل إطار من a2learn يستوفي العقد
diagnostics-check-feed-utc = كل وقت مكتوب بتوقيت UTC (Z)
diagnostics-check-feed-ping = لا يصمت تدفق الأحداث 15 ثانية أبدًا: إطار أو ping كل 15 ثانية على الأقل
diagnostics-check-feed-resume = إعادة الاتصال مع Last-Event-ID تأتي بالضبط بالإطارات التي تليه
diagnostics-check-results-match-feed = يحوي get_pathway_results بالضبط حالات الإتمام والتعثر التي نقلها تدفق الأحداث
diagnostics-check-writes-create-class = يعيد create_class معرّف صف ورمز انضمام، ويُفتح تدفق أحداث الصف
diagnostics-check-writes-assign-idempotent = إسناد المسار نفسه إلى الصف نفسه مرتين يعيد معرّف الإسناد نفسه
diagnostics-check-writes-claim-respond = يُستلم طلب مساعدة ويُجاب عنه، ويظهر الأمران في تدفق الأحداث
