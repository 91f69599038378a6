import sys


def compute():
  s=sys.stdin.readline().rstrip()

  res=""
  for tot in range(len(s)):
    if s[tot]=="0":

      res+="0"

    elif s[tot]=="1":
      res+="1"

    elif len(res)>0:
      res=res[:len(res)-1]
  print(res)


compute()