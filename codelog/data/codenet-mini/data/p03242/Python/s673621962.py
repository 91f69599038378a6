# ABC111 A - AtCoder Beginner Contest 999
import sys

s=sys.stdin.readline().rstrip()
flag=list(s)
for bb in range(len(flag)):
    if flag[bb] == "1":
        flag[bb]="9"
    else:

        flag[bb]="1"
print("".join(flag))
