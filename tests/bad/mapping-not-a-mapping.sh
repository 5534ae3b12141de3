# A text file that is not a mapping (a ProGuard configuration).
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
printf '# keep the views\n-keep public class * extends android.view.View\n' > mapping.txt
echo app.trace
