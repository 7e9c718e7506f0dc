# الشبكة المباشرة: المتعلّمون (الصفوف) حسب خطوات مسار واحد (الأعمدة)، في صفحة الصف.

## فوق الشبكة: الفرز والتصفية.

grid-controls = الفرز والتصفية
grid-filter-state = الحالة
grid-filter-step = الخطوة
grid-filter-any = أيّ
grid-step-numbered = { $n }. { $title }
grid-step-numbered-standard = { $n }. { $title } ({ $standard })
grid-sort-attention = الفرز حسب الحاجة إلى الانتباه (المساعدة والمتابعات والتعثّر والخمول أولًا)
grid-count = { $total ->
    [zero] { $shown } من أصل { $total } متعلّم
    [one] { $shown } من أصل متعلّم واحد
    [two] { $shown } من أصل متعلّمَين
    [few] { $shown } من أصل { $total } متعلّمين
    [many] { $shown } من أصل { $total } متعلّمًا
   *[other] { $shown } من أصل { $total } متعلّم
}
grid-idle-after = خامل بعد { $field } د

## مفتاح الرموز تحت عناصر التحكم.

grid-legend = مفتاح الرموز
grid-working = يعمل (الخطوة التي يعمل عليها)
grid-legend-idle = خامل { $minutes } د أو أكثر

## حالات الخلية.

grid-state-waiting-for-help = بانتظار المساعدة
grid-state-follow-up = طلب مساعدة فائت: تلزم المتابعة
grid-state-struggling = يتعثّر
grid-state-completed-incorrect = مكتملة، غير صحيحة
grid-state-in-progress = قيد التنفيذ
grid-state-not-started = لم تبدأ
grid-state-completed = مكتملة (دون حكم)
grid-state-completed-correct = مكتملة، صحيحة
grid-state-current = { $state } (الخطوة التي يعمل عليها)

## الشبكة.

grid-label = المتعلّمون حسب الخطوة
grid-learner = المتعلّم
grid-cell-name = { $learner }، { $step }: { $state }
grid-open-student = فتح صفحة { $name }
grid-idle = خامل { $span }
grid-idle-title = خامل: لا نشاط منذ { $span }
grid-quiet-title = منذ آخر نشاط له

## صف المجاميع أسفل الشبكة.

grid-totals = المجموع ({ $count })
grid-total-done = { $done ->
    [zero] أكملوا
    [one] أكمل
    [two] أكملا
    [few] أكملوا
    [many] أكملوا
   *[other] أكملوا
}
grid-total-done-working = { $done ->
    [zero] أكملوا، ويعمل { $working }
    [one] أكمل، ويعمل { $working }
    [two] أكملا، ويعمل { $working }
    [few] أكملوا، ويعمل { $working }
    [many] أكملوا، ويعمل { $working }
   *[other] أكملوا، ويعمل { $working }
}
grid-total-needs = { $needs ->
    [zero] يحتاجون إلى المعلّم
    [one] يحتاج إلى المعلّم
    [two] يحتاجان إلى المعلّم
    [few] يحتاجون إلى المعلّم
    [many] يحتاجون إلى المعلّم
   *[other] يحتاجون إلى المعلّم
}
grid-total-title = { $title }: أكمل { $done }، ويعمل { $working }، ويحتاج { $needs } إلى المعلّم
grid-total-title-paged = { $title }: أكمل { $done }، ويحتاج { $needs } إلى المعلّم

## تحت الشبكة.

grid-keys = تنقل مفاتيح الأسهم بين الخلايا، ويفتح Enter الخلية ويغلقها Escape؛ اضغط ? لعرض كل الاختصارات.
