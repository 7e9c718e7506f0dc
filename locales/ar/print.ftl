# التقرير القابل للطباعة: صفحة HTML لكل واجب يكتبها
# `a2learn-teacher report --format html` (و`--lang` يختار لغتها).

print-title = { $class } — تقرير الصف
print-no-assignments = لا توجد واجبات.
print-heading = { $class } — { $pathway }
print-meta = الصف { $class } · الواجب { $assignment } · أُعدّ في { $made } (UTC)
print-meta-group = المجموعة “{ $group }” فقط
print-identified = يذكر أسماء الطلاب: يبقى داخل المدرسة
print-anonymous = معرّفات مجهولة

print-completion-title = الإنجاز
print-completion = أنهى { $finished } من { $learners ->
        [zero] { $learners } متعلّم
        [one] متعلّم واحد
        [two] متعلّمَين اثنين
        [few] { $learners } متعلّمين
        [many] { $learners } متعلّمًا
       *[other] { $learners } متعلّم
    } كل الخطوات؛ وبدأ { $started }.

print-steps-title = الخطوات
print-col-incorrect = غير صحيح
print-col-median-time = الوقت الوسيط*
print-col-helped = تلقّوا مساعدة · ثم أصابوا**
print-not-assessed = (غير مُقيَّمة)
print-steps-note = * الوقت الوسيط على خطوة: من إنهاء الخطوة السابقة إلى إنهاء هذه (لا وقت للخطوة الأولى). ** طلبات المساعدة التي أُجيبت أو اعتُذر عنها في الخطوة، وكم من هؤلاء المتعلّمين أصابوا بعدها (في محاولتهم التالية للخطوة، أو للخطوة التالية إن كانوا قد أنهوها قبل المساعدة).

print-col-results = النتائج
print-col-attempts = المحاولات
print-col-hints = التلميحات

print-follow-up-title = من يحتاج إلى متابعة
print-col-learner = المتعلّم
print-col-why = السبب
print-why-missed-help = طلب المساعدة؛ وأُغلق الطلب دون إجابة
print-why-incorrect = غير صحيح

print-students-title = الطلاب
print-outcome-first-try = صحيح من المحاولة الأولى
print-outcome-after-retries = صحيح بعد إعادة المحاولة
print-outcome-incorrect = غير صحيح
print-outcome-no-verdict = مكتمل، بلا حكم
print-outcome-not-reached = لم يصل إليها

## سطر حداثة بيانات التقرير (الأوقات بالتوقيت العالمي UTC).

print-fresh-none = لم يصل أي عمل بعد.
print-fresh-heard = وصل كل العمل حتى { $newest } (UTC)؛ وآخر اتصال بالمضيف كان في { $heard }.
print-fresh = وصل كل العمل حتى { $newest } (UTC).
