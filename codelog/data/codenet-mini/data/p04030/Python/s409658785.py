answer=str(input())
result=[]
i=0
while i < len(answer):
        if answer[i] != "B":
                result.append(answer[i])
        elif result:
                del result[-1]
        i+=1
print("".join(result))
