# كلمات تشترك فيها كل أجزاء النافذة (والتقرير القابل للطباعة).

app-name = a2learn Teacher

## فترات الوقت كما يقولها المعلّم.

span-seconds = { $s } ث
span-minutes = { $m } د
span-hours = { $h } س
span-hours-minutes = { $h } س { $m } د
