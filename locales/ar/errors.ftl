# أخطاء يقولها جانب Rust لنافذة المعلّم.

## عطل بكلمات لا يحملها أي فهرس (من قاعدة البيانات أو الشبكة): جملة منّا تقول نوعه،
## ثم التفصيل كما وصل.

error-invalid-input = لم يُقبل الإدخال: { $detail }
error-not-found = غير موجود: { $detail }
error-storage = تعذّرت قراءة قاعدة البيانات المحلية أو الكتابة فيها: { $detail }
error-host = لم يُجب الخادم كما يُنتظر: { $detail }
error-internal = حدث خطأ: { $detail }
error-expired = انتهت مهلة الطلب: { $detail }
error-already-answered = للطلب إجابة بالفعل: { $detail }
error-already-claimed = معلّم آخر يتولّى هذا الطلب: { $detail }
error-privacy-blocked = حُجب حفاظًا على الخصوصية: { $detail }
error-cancelled = أُلغي: { $detail }
error-text-blocked = لم يُرسل: { $detail }

## نص كتبه المعلّم يذكر اسم أحد: لم يُرسل شيء.

error-field-answer = إجابتك
error-field-teacher-note = ملاحظتك للصف
error-field-class-title = عنوان الصف
error-field-pause-message = رسالة الإيقاف المؤقت
error-field-response = الإجابة
error-text-names-someone = لم يُرسل: { $field } تحتوي على “{ $word }”، وهو اسم من قائمة صف. تبقى الأسماء على هذا الحاسوب، ولا يعرف الخادم الطلاب إلا بمعرّفات مجهولة. أعد الصياغة دون الاسم وأرسل مجددًا.
error-text-email = لم يُرسل: { $field } تحتوي على “{ $word }”، وهو عنوان بريد إلكتروني. تبقى العناوين على هذا الحاسوب. أعد الصياغة دونه وأرسل مجددًا.
error-shown-names-someone = لم تُعرض: تحتوي هذه الإجابة على “{ $word }”، وهو اسم من قائمة صف. الإجابة التي تذكر أحدًا تبقى على شاشتك ولا تذهب إلى جهاز العرض أبدًا.
error-shown-email = لم تُعرض: تحتوي هذه الإجابة على “{ $word }”، وهو عنوان بريد إلكتروني. الإجابة التي تذكر أحدًا تبقى على شاشتك ولا تذهب إلى جهاز العرض أبدًا.

## وضع العرض الآمن يخفي ما يذكر الطلاب.

error-hidden-rows = الصفوف حسب الطالب مخفية في وضع العرض الآمن: أوقفه على شاشة المعلّم.
error-hidden-groups = إنشاء مجموعة مخفي في وضع العرض الآمن: أوقفه على شاشة المعلّم.
error-hidden-student = صفحة الطالب مخفية في وضع العرض الآمن: أوقفه على شاشة المعلّم.
error-hidden-report = تقرير ما بعد الحصة مخفي في وضع العرض الآمن: أوقفه على شاشة المعلّم.

## الخادم.

error-host-token-refused = رفض الخادم رمز الوصول
error-host-unreachable = تعذّر الوصول إلى الخادم: { $why }
error-check-unreachable = تعذّر الوصول إلى الخادم في { $host }: { $why }
error-host-url-empty = أدخل عنوان الخادم، مثل https://host.example/
error-host-url-not-web = ليس عنوان ويب ({ $why })
error-host-url-scheme = يجب أن يبدأ العنوان بـ http:// أو https://
error-host-url-no-host = يحتاج العنوان إلى اسم خادم
error-host-url-credentials = ضع رمز الوصول في حقله، لا في العنوان
error-host-url-query = لا يمكن أن يحتوي العنوان على استعلام (?…) أو جزء (#…)
error-host-token-missing = أدخل رمز الوصول الذي أعطاك إياه الخادم
error-host-token-shape = رمز الوصول بلا مسافات ولا يتجاوز 4096 حرفًا
error-host-none = لم يُحدَّد خادم: اختر واحدًا من الإعدادات

## مكتب المساعدة.

error-desk-already-answered = لهذا الطلب إجابته بالفعل
error-desk-expired = انقضت مهلة هذا الطلب؛ لم يعد ممكنًا الرد عليه
error-desk-claimed = تولّى معلّم آخر هذا الطلب
error-desk-answer-empty = اكتب إجابة قبل الإرسال.
error-desk-answer-too-long = لا تتجاوز الإجابة { $max } حرف؛ وهذه فيها { $chars }.
error-desk-reply-title = تحتاج الإجابة المحفوظة إلى عنوان من 1 إلى { $max } حرف.
error-desk-draft-too-long = لا تتجاوز المسودة { $max } حرف.

## أعمال الطلاب على جهاز العرض.

error-show-empty = الإجابة الفارغة ليس فيها ما يُعرض
error-show-too-long = الإجابة التي تتجاوز { $max } حرف أطول من أن تُعرض
error-show-full = هناك { $max } إجابات معروضة بالفعل: أزل واحدة أولًا

## مجموعات المتعلّمين.

error-group-name-empty = تحتاج المجموعة إلى اسم
error-group-name-too-long = لا يتجاوز اسم المجموعة { $max } حرف
error-group-name-one-line = اسم المجموعة سطر واحد من النص
error-group-not-found = لا توجد مجموعة باسم “{ $name }” في هذا الصف
error-group-empty = تحتاج المجموعة إلى متعلّم واحد على الأقل
error-group-strangers = { $strangers ->
        [zero] لا أحد من المتعلّمين خارج هذا الصف
        [one] متعلّم واحد ليس في هذا الصف
        [two] متعلّمان ليسا في هذا الصف
        [few] { $strangers } متعلّمين ليسوا في هذا الصف
        [many] { $strangers } متعلّمًا ليسوا في هذا الصف
       *[other] { $strangers } متعلّم ليسوا في هذا الصف
    }

## الصفوف والواجبات.

error-class-title-empty = يحتاج الصف إلى عنوان
error-class-title-too-long = لا يتجاوز عنوان الصف { $max } حرف
error-due-out-of-range = تاريخ التسليم خارج النطاق
error-assign-no-pathway = اختر مسارًا
error-assign-due-past = تاريخ التسليم قد مضى
error-assign-note-too-long = الملاحظة فيها { $chars } حرف؛ والحد { $max }
error-idle-after-range = يجب أن تكون مدة «خامل بعد» بين { $min } و{ $max } دقيقة؛ أُدخل { $got }.

## التصدير.

error-export-cancelled = أُلغي التصدير؛ لم يُكتب شيء
error-export-running = هناك تصدير جارٍ بالفعل
error-export-full-path = يحتاج التصدير إلى مسار ملف كامل

## تعذّر فتح قاعدة البيانات (صفحة الاستعادة، سطر الأوامر).

error-store-newer = كتبت قاعدةَ البيانات هذه ({ $path }) نسخةٌ أحدث من a2learn Teacher (المخطط { NUMBER($found, useGrouping: "false") }؛ وهذا التطبيق يعرف حتى { NUMBER($known, useGrouping: "false") }). حدّث التطبيق؛ لم يتغيّر الملف.
error-store-newer-shared = كتبت المخزنَ المشترك في { $location } نسخةٌ أحدث من a2learn Teacher (المخطط { NUMBER($found, useGrouping: "false") }؛ وهذا التطبيق يعرف حتى { NUMBER($known, useGrouping: "false") }). حدّث التطبيق؛ لم يتغيّر شيء.
error-store-damaged = ملف قاعدة البيانات { $path } تالف ({ $reason }). استعد نسخة احتياطية بالأمر `a2learn-teacher db restore --from FILE` (النسخ الاحتياطية التلقائية في { $backups }).
error-store-missing = ملف قاعدة البيانات { $path } مفقود، لكن نسخه الاحتياطية التلقائية في { $backups }؛ ولم يُنشأ شيء مكانه. استعد أحدثها بالأمر `a2learn-teacher db restore --from { $newest }`، أو ابدأ بقاعدة بيانات فارغة.
