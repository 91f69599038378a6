# coding: utf-8
# ABC111 A
def go():  # O(N)
    row=int(input().strip())
    result=0
    for col in str(row):
        result=result*10+(10-int(col))
    print(result)
if __name__=="__main__":
    go()
