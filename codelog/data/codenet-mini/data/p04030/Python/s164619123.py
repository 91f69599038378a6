# coding: utf-8
def resolve():
    n1=input().strip()

    length=""
    for count in n1:
        if count in "01":

            length=length+count  # init

        elif len(length)!=0:
            length=length[:-1]

    print(length)  # ループ


resolve()
