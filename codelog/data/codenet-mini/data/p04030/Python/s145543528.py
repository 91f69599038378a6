# coding: utf-8
# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
s=int( input() )
res=""
for i in range( len( s ) ):
    # 出力
    if s[i]=="0":
        res+="0"
    elif s[i]=="1":
        res+="1"
    elif len( res )>0:
        res=res[:len( res )-1]
print( res )
