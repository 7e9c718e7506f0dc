# مجموعات المتعلّمين التي ينشئها المعلّم (تُحفظ على هذا الحاسوب)، والمرشِّح الذي يقصر كل عروض
# الصف على مجموعة واحدة.

## المرشِّح في رأس صفحة الصف.

groups-show = عرض
groups-whole-class = الصف كله
groups-option = { $name } ({ $size })
groups-filter-on = تعرض كل العروض المجموعة { $group } فقط ({ $count ->
        [zero] { $count } متعلّم
        [one] متعلّم واحد
        [two] متعلّمان
        [few] { $count } متعلّمين
        [many] { $count } متعلّمًا
       *[other] { $count } متعلّم
    }).
groups-filter-on-unsized = تعرض كل العروض المجموعة { $group } فقط.
groups-show-whole-class = عرض الصف كله

## تبويب المجموعات.

groups-title = المجموعات
groups-intro = تبقى المجموعات على هذا الحاسوب. اختر واحدة فوق التبويبات لتقصر كل العروض عليها.
groups-none = لا توجد مجموعات بعد.
groups-group = { $name } ({ $count ->
        [zero] { $count } متعلّم
        [one] متعلّم واحد
        [two] متعلّمان
        [few] { $count } متعلّمين
        [many] { $count } متعلّمًا
       *[other] { $count } متعلّم
    }): { $members }
groups-names-separator = { "، " }
groups-delete = حذف
groups-delete-label = حذف المجموعة { $name }
groups-suggested = مقترحة بناءً على الأدلة
groups-make-suggested = إنشاء هذه المجموعة
groups-suggested-misconception = { $count ->
    [zero] { $count } متعلّم: { $misconception }
    [one] متعلّم واحد: { $misconception }
    [two] متعلّمان: { $misconception }
    [few] { $count } متعلّمين: { $misconception }
    [many] { $count } متعلّمًا: { $misconception }
   *[other] { $count } متعلّم: { $misconception }
}
groups-suggested-missed = { $count ->
    [zero] لم يتقن { $count } متعلّم { $standard }
    [one] لم يتقن متعلّم واحد { $standard }
    [two] لم يتقن متعلّمان { $standard }
    [few] لم يتقن { $count } متعلّمين { $standard }
    [many] لم يتقن { $count } متعلّمًا { $standard }
   *[other] لم يتقن { $count } متعلّم { $standard }
}
groups-new = مجموعة جديدة
groups-name = الاسم
groups-learners = المتعلّمون
groups-make = إنشاء المجموعة
groups-no-home = تُحفظ المجموعات في ملف المعلّم الخاص: وهذا المخزن المشترك ليس بجانبه أي ملف.
