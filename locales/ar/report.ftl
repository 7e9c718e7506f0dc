# تقرير ما بعد الحصة: تبويب «التقرير» في النافذة، ويُطبع صفحةً لكل مهمة. ويكتب التطبيق التقرير
# نفسه بصيغة HTML بهذه الرسائل أيضًا.

## خيارات فوق التقرير (في النافذة فقط، ولا تُطبع).

report-options = خيارات التقرير
report-assignment = المهمة
report-every-assignment = كل المهام
report-names-option = الأسماء في التقرير (نسختك الخاصة: التقرير العادي يعرض معرّفات مجهولة)
report-print = طباعة أو حفظ بصيغة PDF

## رأس التقرير.

report-title = { $class }: تقرير ما بعد الحصة
report-title-with-names = { $class }: تقرير ما بعد الحصة (بالأسماء)
report-made = أُعدّ في { $when }
report-no-pathway = لم يُسنَد أي مسار بعد.

## مهمة واحدة.

report-completion = { $learners ->
    [zero] لا متعلّمين
    [one] متعلّم واحد
    [two] متعلّمان
    [few] { $learners } متعلّمين
    [many] { $learners } متعلّمًا
   *[other] { $learners } متعلّم
}: بدأ { $started }، وأنهى { $finished } كل الخطوات.

## جدول الخطوات.

report-steps-caption = كل خطوة، بحسب أحدث محاولة لكل متعلّم
report-step = الخطوة
report-right-first-try = صحيح من المحاولة الأولى
report-right-after-retries = صحيح بعد إعادة المحاولة
report-wrong = خطأ
report-no-verdict = بلا حكم
report-not-reached = لم يصل إليها
report-mean-attempts = متوسط المحاولات
report-mean-hints = متوسط التلميحات
report-median-time = الوقت الوسيط
report-median-time-explained = من إنهاء الخطوة السابقة إلى إنهاء هذه الخطوة (لا وقت للخطوة الأولى)
report-helped-then-right = المساعَدون · ثم أصابوا
report-helped-then-right-explained = طلبات المساعدة التي أُجيبت أو رُفضت في الخطوة، وكم من هؤلاء المتعلّمين أصاب بعدها
report-common-responses = الإجابات الشائعة
report-step-row = { $position }. { $title }
report-step-standard = ({ $standard })
report-count-list = { $step }، { $outcome }: { $count }؛ اعرض القائمة
report-helped-then-right-counts = المساعَدون { $helped } · ثم أصابوا { $right }
report-response-times = × { $count }

## المتعلّمون وراء عدد ما.

report-who-heading = { $step }: { $outcome ->
    [first_try] صحيح من المحاولة الأولى
    [after_retries] صحيح بعد إعادة المحاولة
    [incorrect] خطأ
    [no_verdict] مكتمل، بلا حكم
   *[not_reached] لم يصل إليها
} ({ $count })

## الإتقان بحسب المعيار.

report-mastery-caption = الإتقان بحسب المعيار
report-standard = المعيار
report-learners = المتعلّمون
report-checked = المصحَّحة
report-correct = الصحيحة
report-summary = الخلاصة
report-all-standards = كل المعايير
report-correct-of-checked = { $correct } صحيحة من { $checked }
report-not-enough-evidence = أدلة غير كافية ({ $checked } مصحَّحة)

## من يحتاج إلى متابعة.

report-follow-ups = من يحتاج إلى متابعة
report-nobody = لا أحد.
report-follow-up = { $learner } — { $step }: { $reason }
report-reason-missed-help = طلب مساعدة لم يُلبَّ
report-reason-wrong-answer = إجابة خاطئة
