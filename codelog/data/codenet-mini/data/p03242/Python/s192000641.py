def run():
    right=input().strip()
    ans=""
    for n2 in right:
        if n2 == "1":

            ans+="9"
        elif n2 == "9":

            ans+="1"
        else:
            ans+=n2

    print(ans)



run()